Aby byl svět lepším místem, musí se udělat radikální změny.
Abych pravdu řekl, Toma nemám rád.
Abych řekl pravdu, docela jsem na naše setkání zapomněl.
Abych řekl pravdu, úplně jsem na tvé otázky zapomněl
Abys dostal nový průkaz, musíš odevzdat ten starý.
Aby se na Zemi brzy manifestoval Zlatý věk, měli bychom si ho představovat jako realitu.
Abyste překonali vaše problémy, musíte jim občas čelit.
Abyste věřili v Boha, nemusíte být pobožní.
Abyste zhubli, jezte méně.
Ach tak.
Ach, ten vlak má zpoždění.
A co tohle?
Ač se kdysi věřilo na souvislost mezi syfilidou a uměleckým géniem, doufal bych, že většina moderních umělců a spisovatelů je dost rozumná na to, aby se vyhýbala nakažení jen kvůli oné maličké šanci, že by jim neurosyfilidní demence pomohla zlepšit kvalitu tvorby.
Afrika je kontinent, Grónsko ne.
Agrese byla vyvolaná bezduvodnymi urážkami.
Agresivní řidiči, kteří nedodržují bezpečnou vzdálenost, jsou nebezpečím pro širokou veřejnost. Nedodržování bezpečné vzdálenosti je druh agrese za volantem.
Aha.
A historie se navždy změnila.
Ahoj!
Ahoj? Jste stále ještě tady?
Ahoj, to je Mike.
Ahoj všichni!
A jak se daří tvé ženě?
Akorát jsem řekl, že potřebuji na vzduch.
Aktualizoval bys moje programy?
Aktualizoval jsem své programové vybavení.
Aktualizoval jsem svůj profil.
Aktualizuj moje programové vybavení.
Aktualizujte moje programové vybavení.
Aktualizujte své programové vybavení.
Ale co když řekne ne?
Ale já byl opatrný.
Ale já vám rozumím docela dobře.
Ale jdi, nechtěl jsem ti ublížit.
Ále, nasrat.
Ale neměla jsem strach.
Alespoň nebyl nikdo zraněn.
Ale tobě se to líbí!
"Ale to je pravda!" trval na svém Dima. "Nedovolí mě koupit si ten oblek pokud jim nedám dalších 99 kopějek. Můžete mi poslat nějaké peníze?"
Alkohol a tvrdé drogy ničí lidské životy.
Alkohol neřeší žádné problémy.
Alžírsko má nového prezidenta.
Alžírsko prodává ropu a plyn.
Američané překvapili Němce.
Amerika vládne světu.
Andělé mají dvě křídla, ďábel má ocas.
Anglicky se mluví všude.
Angličtina je pro Holanďany snadný jazyk k učení.
Angličtina se líbí jim.
Angličtina se používá na celém světě.
Ani já bych to nekupoval.
Ani jedna z těchto knih není zajímavá.
Ani jsem tam nebyl.
Ani moje žena, ani moje děti o tom nevěděly.
Ani na chvíli toho nelituji.
Ani nevím, jak je to možné.
Ani on a ani jeho žena nebyli přítomni.
Ani radost ani smutek nejsou věčné.
Ani radost ani smutek netrvají věčně.
Ani se nejmenuji Tom.
Ani se neomluvil.
Ani se nepokoušej to popřít.
Ani se neznáme.
Ani se tě nedotknou.
Ani se to nepokusím vyslovit.
Ani Tom, ani Mary nemá řidičský průkaz.
Ani trochu toho nelituju.
Ani trochu to nebolelo.
Ani v zimě nemáme moc sněhu.
Anna má moc ráda čokoládu.
Ann ráda píše básně.
Ano, ale nemusíš zůstat do konce.
Ano, bohužel.
Ano, jmenuji se Karen Smith.
Ano, mléko je velmi dobré.
Ano, musíš.
Ano, obě slova mají tentýž význam.
Anorexie stále ovládala její život.
Ano, samozřejmě.
Antibiotika ničí bakterie, ale neúčinkují na viry.
A pak se všichni postavili a zatleskali.
Arabština je těžká!
Arménština je jeden z nejtěžších jazyků na učení.
Arogantní lidé nikdy nemotivují ostatní lidi.
Arogantní lidi urazí negativní odezva.
Asi ale tušíš, co se stane.
Asi by bylo lepší, kdybych to byl neudělal.
Asi bych měl jít domů.
Asi bych měl jít domů.
Asi bys raději měl jít se mnou.
Asi bys to neměl jíst.
Asi jsem tak trochu vlk samotář.
Asi máš těžká zavazadla.
Asi se zbláznil.
Asi ti budu muset věřit.
Asi tuším, co se mohlo stát.
Asi za dva týdny.
Aspoň mám kde přespat.
Astrologii mám rád.
A teď jsem v průšvihu.
Athéna je bohyně moudrosti.
Ať jsme hledali jak jsme hledali, najít jsme to nemohli.
Atmosféra se hlavně skládá z dusíku a kyslíku.
Atomové číslo železa je 26.
Atomy se skládají z protonů, elektronů a neutronů.
Ať se děje cokoliv, neotvírejte ty dveře.
Ať se ti tvé sny vyplní!
Ať se z toho poučíš.
Ať si dělá, co chce.
Ať Toma varujete jakkoliv, je to marná snaha.
A ty?
Ať žije Sovětský svaz!
Austrálii pustoší nejhorší přírodní požáry za desetiletí.
Auto budoucnosti nepotřebuje řidiče.
Autobus je prázdný.
Autobus přijel včas.
Autobusy jezdí každých deset minut.
Autobusy odjely jeden za druhým.
Auto zastavilo a Tom vystoupil.
Autu praskla pneumatika.
A Vy?
Až do Tomova příchodu to byla dobrá párty.
Až se dostaneme domů, bude už tma.
Až sem přijdeš, budu už spát.
Až sem Tom přijde, budu už pryč.
Až se najím, tak si zdřímnu.
Až se vrátíš, budu tady.
Až síla Světla ovládne Zemi, už nebude utrpení.
Až uvidíš Mary, dej jí tenhle lístek.
Až vyrosteš, Tom už možná nebude naživu.
Až vyrostu, chci být jako on.
Babi, řekneš mi ještě jednu pohádku?
Bacha, kachna!
Balení tohoto výrobku je poškozeno.
Bál jsem se, že bych to neuměl udělat správně.
Bál jsem se, že mě Tom zabije.
Bál jsem se, že mě Tom zabije.
Bály se tě.
Bangkok je hlavní město Thajska.
Banka ještě není otevřená.
Bankéři ovládají svět.
Barcelona je hlavní město Katalánska a druhé největší město ve Španělsku.
Barcelona je ráj Katalánské kuchyně.
Barmane, dám si něco k pití.
Barva fuksie je pojmenována po květině.
Barva se loupe z oprýskané zdi.
Barva této kravaty s tvým oblekem neladí.
Baterie dálkového ovladače je vybitá.
Baterie u auta se vybila.
Bavili jsme se o několika možnostech.
Bavili se spolu jako staří kámoši.
Baví mě číst knížky v angličtině.
Baví mě matematika.
Baví tě studovat?
Beduíni žijí v poušti.
Běhám rychleji, než Tom.
Běháš každý den?
Během posledních 36 hodin Tom nic nejedl.
Během zkoušky není dovoleno používat slovník.
Běh událostí se zrychluje.
Bělehrad je hlavní město Srbska.
Benzín je hořlavější než mazut.
Benzín už není levné palivo.
Bere si ho pro peníze?
Bereš to moc vážně.
Berou nám naši svobodu.
Ber to jen jako dobrou radu. Nic ti nenařizuji.
Betty by mohla zpívat lépe.
Betty zabila svou matku.
Bezbarvé zelené nápady spí šíleně.
Bezcitnost u mladých lidí je podporována násilnými filmy a počítačovými hrami.
Bezdomovci nemají peníze, ale jsou neradi, když se jim to připomíná.
Běžel, co nejrychleji mohl.
Běželi jsme, abychom dohnali Toma.
Běžel jsi tak rychle, jak to šlo.
Beze mě to udělat nezvládneš.
Běžíme k ohni.
Běžím rychleji, než ty.
Běž na druhou stranu.
Běžně se má za to, že všechny pohádky jsou příběhy z lidové tradice předávané vypravěči z jedné generace na druhou od počátku dějin.
Běž, než bude příliš pozdě.
Bez odchýlení od normy nelze dosáhnout pokroku.
Bezpečně můžete bruslit na této straně jezera.
Bezpodmínečně sem zítra přijď.
Běž rychle, nebo ti ten autobus ujede.
Běž se obléct do pyžama.
Běž si líbat někoho jiného.
Bez souhlasu Toma bych nic neudělal.
Bez svítilny nezvládneš vidět nic.
Běžte Toma pozdravit.
Běžte Toma pozdravit.
Bez Toma se budu cítit opuštěná.
Bez Toma se budu cítit osamělý.
Bez Tomova souhlasu bych to byl neudělal.
Bez tvé pomoci bych to nebyl schopen udělat.
Bez tvých rad se obejdu.
Bez váhání jsem splnil jeho žádost.
Bez váhání zalhal.
Bez vaší pomoci to nezvládnu.
Bez vody není možno žít.
Blahopřeji všem. Konečně jsme to zvládli!
Blbec!
Blbost.
Blíží se další bouřka.
Blýská se.
Bob hledal někoho, s kým by bylo možné si promluvit.
Bob vaří snídani ráno.
Bohatí někdy nad chudými ohrnují nos.
Bohatí se někdy dívají na chudé s patra.
Bohatství přichází k těm, co se činní, nikoliv k těm, co jen dávají činům volný průchod.
Bohužel jí to nemohu říct.
Bohužel mám špatné zprávy.
Bohužel, mnoho lidí zemřelo.
Bohužel, nebyl v tom moc dobrý.
Bohužel nedokážu ihned odpovědět.
Bohužel ne.
Bohužel nemohu najít baterii ke svému fotoaparátu.
Bohužel vás musím zklamat.
Bojím se Alláha.
Bojím se jít ve tmě.
Bojím se lídí i sebe.
Bojím se řídit auto na jednosměrných silnicích.
Bojím se smrti.
Bojím se toho.
Bojím se výsledků.
Bojím se, že o tebe přijdu.
Bojím se, že se něco strašně moc pokazilo.
Bojím se, že tady budu vězet věčně.
Bojí se létat letadlem.
Bojí se plavat.
Bojí se tě.
Bojíš se mě?
Bojíš se něčeho?
Bojíš se smrti?
Bojíš se Toma, co?
Bojíš se, že tě vyhodí z práce?
Bojíte se ho?
Bojíte se jí?
Bojíte se něčeho?
Bojíte se ticha?
Bojovali za svobodu.
Bojujeme proti veškerým drogám.
Bolelo jí celé tělo.
Bolest byla strašná.
Bolest nakonec přestala.
Bolí mě noha.
Bolí mě pravá ruka.
Bolí mě pravé rameno.
Bolí mě srdce.
Bolí mě v krku a teče mi z nosu.
Bolí tě žaludek?
Boty jaké barvy sis koupil?
Boty máš pod postelí.
Bouře opět vyvrhla na pláž mnoho naplaveného dřeva.
Bozi se na Toma rozzlobili.
Braň ten kostel.
Brazílie je velká země.
Brian šel do školy s Kate.
Brusel je hlavní město Belgie.
Bruslí.
Brzo si na to zvykneš.
Brzy bude jaro.
Brzy budeme hotovi.
Brzy bude připravený.
Brzy bude říjen.
Brzy bude umět plavat.
Brzy poznáš pravdu.
Brzy se dozvíš pravdu.
Brzy se stane otcem.
Brzy si na to zvykneš.
Bubeník je také hlavní zpěvák té skupiny.
Budeme bydlet spolu.
Budeme doufat, že se k tomu dostaneme.
Budeme jíst, jakmile tohle doděláme.
Budeme mluvit rusky?
Budeme muset návštěvu Toma odložit.
Budeme na tom pracovat zítra.
Budeme prodávat náš dům.
Budeme pronajímat naši zahradu.
Budeme se muset vypořádat s každou překážkou, která se nám postaví do cesty.
Budeme si muset brzy najít nové místo.
Budeme stavět zeď.
Budeme z toho mít potíže?
Bude mi trvat dlouho, než to dokončím.
Bude podáváno malé občerstvení.
Bude pracovat.
„Bude pršet?“ — „Doufám, že ne.“
Budeš mi chybět, až odejdeš.
Budeš mi chybět.
Budeš mít řeč s Tomem?
Budeš muset počkat.
Budeš potřebovat klíč.
Budeš se dnes večer učit?
Budeš slavná.
Budeš slavný.
Budeš šťastná.
Budeš šťastný.
Budeš tam muset asi hodinu čekat.
Budeš tam?
Budeš Tomovi dělat tlumočníka?
Budeš Tomovi překládat?
Budeš zaostávat, jestliže budeš stále chybět na hodinách.
Budeš zítra ráno ve své kanceláři?
Budete mi chybět.
Budete mít minutu na obhajobu svého názoru.
Budete si muset na výsledky počkat do zítra.
Bude těžké dostat ji zpět.
Bude to buď Tom a nebo vy.
Bude to dlouhá cesta.
Bude to nějakou dobu trvat.
Bude to někdo překládat?
Bude to někdo překládat?
Bude to Tom, nebo já?
Bude tu vyšetřování.
Bude velké odhalení.
Bude žárlit.
Bude zítra pršet?
Budhismus je mírumilovné náboženství. Staňte se budhisty.
Budit jste mne nemuseli.
Buď ke všem zdvořilý.
Buďme optimisté.
Buďme šťastni.
Buďme všichni přáteli.
Buď na to dítě opatrný.
Buď opatrný!
Budoucnost bývala lepší.
Budou spokojeni.
Budou zlikvidováni.
Budova je vysoká sedm pater.
Buď prosím opatrná, abys nerozbila tu vázu.
Buď tak laskav, a odejdi.
Buďte tak laskav a při odchodu zavřete dveře.
Buďte vždy ve střehu.
Budu čekat na vás oba.
Budu číst tu knihu.
Budu dělat domácí úkol.
Budu jíst pomeranč.
Budu k vám upřímný.
Budu nosit košili.
Budu pít čaj.
Budu pokračovat ve své práci.
Budu pokračovat v opravování svých chyb.
Budu potřebovat podrobnosti.
Budu pracovat na zahradě celé dopoledne.
Budu rád, když mi pomůžeš.
Budu se koupat.
Budu se ti ještě muset ozvat.
Budu se Tomovi vyhýbat.
Budu se učit latinu.
Budu se vám ještě muset ozvat.
Budu svědčit.
Budu tatínkem.
Budu ti držet palce.
Budu to demonstrovat pomocí konkrétních příkladů.
Budu Toma bránit.
Budu Toma bránit.
Budu Tomovi ten film vyprávět, až ho zhlédnu.
Budu Tomovi všechno vyprávět, až se s ním uvidím.
Budu Tomovi všechno vyprávět, až se s ním uvidím.
Budu to muset udělat bez přípravy.
Budu to vůbec schopen udělat?
Budu u sebe v pokoji.
Budu v Bostonu celý den.
Budu velmi opatrný.
Budu velmi šťastný, když budeš moci přijít.
Budu velmi zklamán, jestli se to stane.
Budu v podkroví.
Budu zase překládat filmy.
Budu zvracet.
Buď velmi stručný, prosím.
Buď zdráv, Ceasare!
Bůh existuje, ale zapomněl heslo.
Bůh je kruh, jehož obvodem je přímka.
Bůh mě miluje.
Bůh ochraňuj Ukrajinu!
Bůh to učinil.
Bunkr vás před viry neochrání.
Burdž Chalífa je v současnosti nejvyšší mrakodrap na světě.
Bydlela tam sama.
Bydlíme blízko pošty.
Bydlíme blízko řeky.
Bydlíme tady.
Bydlíme v bytě hned přes ulici.
Bydlím na druhé straně řeky.
Bydlím poblíž.
Bydlím ve městě.
Bydlím v Turecku.
Bydlíš poblíž?
Bydlíte tu rádi?
Bydlíte ve velkém domě?
Bydlívala tam ohavná příšera.
Bydlíval jsem poblíž parku.
Byla by škoda, kdyby se takové slovo ztratilo.
Byla docela tma, když jsem dorazil domů.
Byla do toho zapojena policie?¨
Byla jsem velmi vzrušená.
Byla naplánovaná zádušní mše za oběti války.
Byla překvapena tím, co viděla.
Byla řada na mně.
Byla sama ve tmě.
Byla taková zima, že to jezero zamrzlo.
Byla tak smutná, že s nikým nechtěla mluvit.
Byla to dlouhá a náročná noc.
Byla to dobrá párty, dokud nepřišel Tom.
Byla to dobrá volba.
Byla to jediná věc, která chyběla.
Byla to jeho poslední večeře.
Byla to jenom nehoda.
Byla to jenom pusa.
Byla to lež.
Byla to těžká zkouška.
"Byla to tvoje přítelkyně?" "Ne. Byla to moje žena."
Byla to tvoje volba.
Byla to vražda, nebo sebevražda?
Byla úplná tma.
Byla vám už někdy diagnostikovaná epilepsie?
Byla v mém pokoji.
Byla v žalostném stavu.
Byl bych jel na hory, kdybych byl měl peníze.
Byl bych mohl plakat.
Byl bych radši, kdyby Tom byl nepřišel.
Byl bych radši, kdyby Tom nepřišel.
Byl bych to dopověděl, kdybys mě nepřerušil.
Byl bych to takhle neřešil.
Byl bych vám velmi vděčný, kdybyste mi zítra pomohli.
Byl bys to mohl udělat.
Byl celý modrý zimou.
Byl dopaden policií o tři dny později, když se snažil nastoupit do trajektu do Francie s kufříkem obsahujícím padesát tisíc liber.
Byli bychom rádi, kdyby Tom odešel.
Byli bychom rádi, kdyby Tom odešel.
Byli jsem nepřátelé.
Byli jsme pět dní bez elektřiny.
Byli jsme před všemi ostatními.
Byli jsme unaveni a hladoví.
Byli jsme ve výtahu uvězněni dvě hodiny.
Byli jsme v obýváku, když jsme slyšeli ten výstřel.
Byli jste milovaní tímhle člověkem kvůli vašemu bohatství.
Byli jste někdy zamilovaní do svého učitele na základní škole?
Byli jste si toho vědomi?
Byli jste už někdy zhypnotizováni?
Byli lepší, než jsem očekával.
Byli překvapeni tím, co viděli.
Byli přesvědčeni, že Tom je chce zabít.
Byli s výsledkem spokojeni.
Byli to moji rodiče, kdo mě naučil jak se to dělá.
Byli to takříkajíc oběti války.
Byli unaveni.
Byli ve sprše.
Byl jedním z nich.
Byl jsem dlouho pryč.
Byl jsem hned za Tomem.
Byl jsem jaksi překvapen, že jsem tam viděl Toma.
Byl jsem jí zklamán.
Byl jsem naprosto ohromen.
Byl jsem opravdu zvědavý.
Byl jsem požádán o pomoc.
Byl jsem požádán vám předat zprávu.
Byl jsem pozván.
Byl jsem překvapen Tomovou upřímností.
Byl jsem připraven na všechno.
Byl jsem rychlejší.
Byl jsem tam celý den.
Byl jsem tam několikrát.
Byl jsem tam také pozván.
Byl jsem tam včera večer.
Byl jsem to ale idiot.
Byl jsem u doktora.
Byl jsem unavený a spal jsem.
Byl jsem usvědčen.
Byl jsem velice překvapen.
Byl jsem velmi překvapen, když mi Tom řekl, že Mary odešla z Bostonu.
Byl jsem velmi vzrušený.
Byl jsem ve svém snu motýlem.
Byl jsem v lese.
Byl jsem zalitý potem.
Byl jsem zaskočený jejich nevraživostí vůči nám.
Byl jsi tam také?
Byl jsi tam také?
Byl jsi už někdy v zahraničí?
Bylo by možné zarezervovat taxi na zítra ráno?
Bylo by skvělé, kdybys to pro mě udělal.
Bylo by to rasistické.
Bylo jí to jedno.
Bylo mi řečeno, že bych měl být pozornější.
Bylo mu teprve čtrnáct.
Bylo radostí strávit večer s tak chytrou, vtipnou a krásnou dívkou, jako jsi ty.
Bylo skoro poledne, když se Tom konečně vzbudil.
Bylo štěstí, že jsi tam byl a pomohl mi.
Bylo to hrozivé krupobití.
Bylo to jako nějaké pohádka.
Bylo to mimo správnou pozici.
Bylo to mistrovské dílo, o kterém často mluvili.
Bylo to náročné.
Bylo to na soutěžní úrovni.
Bylo to od Toma velmi hezké, že na nás počkal.
Bylo to otázkou času.
Bylo to tak dávno, že už si na to pořádně nevzpomínám.
Bylo to velmi dobré.
Bylo to velmi psychedelické.
Bylo to vyrobeno ručně.
Byl pánem situace.
Byl potrestán za své zločiny.
Byl překvapen, když slyšel tu zprávu.
Byl příliš unaven, aby šel dál.
Byl rozdrcen k smrti.
Byl sexuálně obtěžován starším mužem v autobuse.
Byl si jist, že ty zprávy se mu nebudou líbit.
Byl sveden Marií.
Byl tak starý, že sotva vyšel schody.
Byl tak unavený, že usnul v křesle aniž by ten film vůbec dokoukal.
Byl to chladný den.
Byl to hloupý nápad.
Byl Tom zraněn?
Byl to náš pes, který se ztratil, ne Tomův.
Byl to nejhroznější den mého života.
Byl to ohromný a skutečný posun.
Byl to pro mě velký šok.
Byl to skvělý generál a státník.
Byl to těžký rok.
Byl to Tom, kdo ho přivedl na scestí.
Byl to Tom, kdo vám umyl auto.
Byl to Tom, kdo začal tu hádku.
Byl to Tom, kdo způsobil Mary tohle trápení.
Byl to velký okamžik v dějinách národa.
Byl trochu zaskočen.
Byl unavený a proto šel brzo spát.
Byl unavený a proto šel brzo spát.
Byl velmi překvapen.
Byl víceméně opilý.
Byl v Paříži.
Byl v Římě, ale neviděl papeže.
Byly časy, kdy jsem měl Toma rád.
Byly to nejlepší roky mého života.
Byly ty volby zmanipulované?
Byly ve sprše.
Byl za námi.
Byl zodpovědný za smrt tvého otce.
Být dobře přizpůsobený silně choré společnosti není důkazem zdraví.
Být hezký má také své nevýhody.
Být milován je asi ten nejskvělejší pocit na světě.
Být na mém místě, co bys udělal?
Být tebou bych Tomovi zavolal v pondělí večer.
Být tebou, nebyl bych si moc jistý.
Být tebou, učil bych se.
Být tebou, zeptám se ho.
Být vámi, tak bych tu zahradu neprodával.
Bývala bych ráda jela do Bostonu s tebou.
Bývala jsem tu učitelkou.
Bývala učitelkou.
Bývala větší.
Býval bys to mohl udělat.
Bývali jsme snoubenci.
Bývali jsme sousedy.
Býval jsem chudý jako ty.
Býval jsem jako Tom.
Býval jsem lechtivý.
Býval jsem ošklivý.
Býval jsem slavný.
Býval jsem štíhlý.
Býval jsem učitelem francouzštiny.
Býval jsem učitelem.
Býval jsem vrchním.
Býval jsem zahradníkem.
Bývalo to pěkné místo k bydlení.
Byv napsán příliš rychle, dopis obsahoval mnoho chyb.
Čaj je jeden z nejoblíbenějších teplých nápojů na světě.
Čaj podporuje trávení.
Canberra je hlavní město Austrálie.
Čaroděj je zpátky.
Čarodějnice proklela to nešťastné děvče.
Čaroděj se vrátil.
Carol se vrátila do svého hotelu.
Čas byl proti Danovi.
Čas hraje pro Toma.
Čas je nemilosrdný.
Čas je vzácný.
Čas odsud vypadnout.
Čas se mění.
Často dělám domácí úkoly před večeří.
Často děláme, co musíme, ne co chceme.
Často jí brambory.
Často jsem ho slyšel to říkat.
Často jsem navštěvoval jeho dům.
Často se dívám na filmy ve francouzštině.
Často trávím svůj volný čas posloucháním hudby.
Čas utíká rychle, když se dobře bavíš.
Čas vše zahojí.
Čas zhojí zlomená srdce.
Čas zmizet.
Čeho jste se bály?
Čeho se bojíte?
Čeho se Tom tak bojí?
Čeho se Tom tak bojí?
Čekajíc na autobus, potkala jsem svého přítele.
Čekají na nás na vlakovém nádraží.
Čekali jsme na ráno.
Čekali jsme na úsvit.
Čekali jsme.
Čekal jsem a čekal.
Čekal jsem až přijede autobus.
