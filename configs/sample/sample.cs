Děkuji.
Dobré ráno, jak ses vyspal?
Vlak do Brna odjíždí v 15:30 z druhého nástupiště.
Nevím, kde jsem nechal klíče.
Zavři okno, je tu zima!
Petr řekl, že přijde později.
Kolik stojí ta modrá bunda?
Ta kniha má přes 300 stran.
Pojď sem, musím ti něco ukázat.
Dnes odpoledne bude v Praze pršet.
Proč jsi mi to neřekla dřív?
To je skvělý nápad!
Moje sestra pracuje jako zdravotní sestra v nemocnici.
Neboj se, všechno bude v pořádku.
Potkáme se před kinem v sedm.
Ano.
Ne, díky.
Můžeš mi podat sůl?
Starosta města oznámil, že nový most bude otevřen v září.
„Nikdy to nevzdávej,“ řekla mu babička.
Včera jsme byli na procházce u řeky.
Kde je nejbližší lékárna?
Musíme odejít nejpozději v 8:15.
Ten pes štěká celou noc.
Omlouvám se, spletl jsem si číslo.
Je to jen otázka času.
Jana má ráda čaj s medem a citronem.
Počkej na mě u vchodu!
Kolik je ti let?
Je mi dvacet pět.
V obchodě už neměli žádné čerstvé pečivo.
Policie hledá svědky nehody, která se stala v úterý ráno.
Nech mě být, chci být sám.
Tohle jsem od tebe opravdu nečekal.
Můj bratr hraje na kytaru už deset let.
Zítra máme důležitou schůzku s klientem.
Přestaň se smát, myslím to vážně!
Kdo to byl u dveří?
Jen pošťák.
Teplota v noci klesne až na minus pět stupňů.
Tomáš a Lucie se vzali loni v létě.
Umíš plavat, nebo se bojíš vody?
Ztratil jsem peněženku někde v tramvaji.
Ta polévka je moc slaná.
Dej mi vědět, až dorazíš domů.
Muzeum je otevřené od úterý do neděle, od 9:00 do 17:00.
Nemám čas, spěchám do práce.
Kdy ses naposledy díval na hvězdy?
To není moje vina!
Vláda schválila nový zákon o ochraně životního prostředí.
Miluju tě.
Pomoc!
Kam jedeš na dovolenou?
Letos pojedeme k moři do Chorvatska.
Doktor mi řekl, abych dva týdny ležel.
Nezapomeň si vzít deštník.
Naše kočka spí celý den na gauči.
Opravdu?
Myslím, že máš pravdu.
Kdyby ses zeptal, pomohl bych ti.
V sobotu se na Staroměstském náměstí slavnostně otevřel vánoční trh, který letos kromě tradičních stánků nabízí také kluziště, živý betlém a každý večer koncert místních sborů.
Zapni prosím televizi, začínají zprávy.
Nikdo neví, co se tu té noci stalo.
Kolik máš vlastně sourozenců?
Mám dva bratry a jednu sestru.
Ten film byl strašně nudný.
Posaď se a vyprávěj mi všechno od začátku.
Marie studuje medicínu v Olomouci.
Autobus má zpoždění dvacet minut.
Proč ne?
Víš, kolik je hodin?
Je přesně půl třetí.
Cena benzinu vzrostla za poslední měsíc o 2 koruny na litr.
Slibuju, že už to neudělám.
Nech toho!
Rád bych si objednal kávu a kousek dortu.
Děti si hrají na zahradě.
Tohle je nejlepší den mého života!
Můžete mluvit trochu pomaleji?
Promiňte, nerozumím ani slovo.
Jeho dědeček bojoval ve válce.
Hasiči dorazili na místo požáru během deseti minut.
Ukaž mi, co máš v té tašce.
Nic.
Lžeš.
Zítra ráno musím vstávat v pět.
Pavel koupil nové auto, ale už se mu porouchalo.
Jak dlouho tady bydlíte?
Bydlíme tu od roku 2010.
Vezmi si ještě jeden kousek, je ho dost.
Chceš jít v pátek večer do divadla?
To zní dobře, počítej se mnou.
Jsem unavený, jdu spát.
Dobrou noc.
Ta stará žena sedí každý den na stejné lavičce v parku.
V České republice žije přibližně 10,5 milionu obyvatel.
Nemůžu najít své brýle.
Máš je na hlavě.
Ozvi se, kdybys něco potřeboval.
Tady to vypadá jako po bitvě.
Kdo vyhrál včerejší zápas?
Sparta porazila Slavii 2:1.
Jsi si jistý, že to zvládneš sám?
Ten dům na rohu patří mému strýci.
Vypni ten telefon, jsme v kostele!
Mám hlad jako vlk.
Na večeři bude kuře s bramborami.
Kdy máš vlastně narozeniny?
Sedmnáctého března, v den svatého Patrika.
Podle meteorologů bude letošní zima mírnější než obvykle.
Ruce vzhůru!
Nestřílejte, vzdávám se!
Neměl bys tolik kouřit.
Vím, ale je těžké přestat.
Eva dostala na zkoušce jedničku.
Můžu si půjčit tvoje kolo?
Jasně, ale vrať mi ho do večera.
Obloha byla plná temných mraků.
Ty jsi ale blázen!
Pan Novák bohužel dnes nemůže přijít, je nemocný.
Na konferenci přijelo přes 500 odborníků z celého světa.
Tohle je můj nejlepší přítel Jakub.
Těší mě.
Co tady děláš tak pozdě?
Nemohl jsem spát, tak jsem se šel projít.
Otevřete učebnice na straně 42.
Ten chlap mi připadá povědomý.
Nikdy jsem ho neviděl.
Když jsem byl malý, trávil jsem každé letní prázdniny u babičky na venkově, kde jsme spolu chodili na houby, krmili slepice a večer sedávali na zápraží.
Uklidni se a dýchej.
Letadlo přistálo na letišti Václava Havla s hodinovým zpožděním.
Vypadáš dnes moc hezky.
Díky, ty taky.
Kolik stojí lístek do Ostravy?
Jednosměrný stojí 259 korun.
Řekni mi konečně pravdu.
Nemůžu, slíbil jsem to.
Ve sklepě jsme našli staré fotografie a dopisy.
Vždycky jsem chtěl vidět Paříž.
Kdo snědl poslední rohlík?
Já ne!
Na dálnici D1 se v pátek odpoledne vytvořila kolona dlouhá osm kilometrů.
Mám pro tebe dobrou zprávu.
Dostal jsem tu práci!
Gratuluju!
Nezapomeň zalít kytky, než odjedeš.
Ta hudba je příliš hlasitá.
Mohl byste to ztlumit?
Jmenuju se Karel a je mi čtyřicet let.
Ten obraz visel v galerii přes sto let.
Proč pláčeš, co se stalo?
Protože jsem šťastná.
Schůze začne v 10:00 v zasedací místnosti ve třetím patře.
Od rána mě bolí hlava.
Vezmi si prášek a lehni si.
V lese jsme potkali srnu s mládětem.
Kdo ti to řekl?
To je tajemství, neřeknu ti to.
Zkus to znovu, tentokrát pomaleji.
Na Šumavě napadlo přes noc třicet centimetrů sněhu.
Můj telefon je skoro vybitý.
Nemáš tu někde nabíječku?
Nech to na mně.
Ona nikdy nepřichází včas.
Kde jsi byl celou dobu?
Čekala jsem na tebe dvě hodiny!
Promiň, zapomněl jsem na to.
Ve čtvrtek večer vystoupí v Lucerně známá jazzová zpěvačka.
Na tom teď vůbec nezáleží.
Jak se řekne „jablko“ anglicky?
Nevěřím ti ani slovo.
Ten chlapec se ztratil v obchodním centru.
Obchod zavírá za deset minut.
Co budeme dělat o víkendu?
Pojďme na výlet do hor.
Firma loni zvýšila zisk o 12 procent.
Nedělej si z toho hlavu.
Kdo je ten muž v černém kabátě?
To je náš nový soused.
Haló, je tady někdo?
Slyšel jsi ten zvuk?
Asi to byl jen vítr.
Moje maminka peče nejlepší buchty na světě.
Přines mi sklenici vody, prosím.
Doprava v centru města bude o víkendu omezena kvůli maratonu.
Rozumíš mi, co ti říkám?
Mám strach z výšek.
Hlavně se nedívej dolů.
Vlak do Plzně byl zrušen kvůli poruše na trati.
Ještě jednou a naposledy: kde jsou peníze?
Netuším.
Tvůj plán nemůže fungovat.
Tak máš lepší nápad?
Klára se naučila řídit ve třiceti.
Smím prosit?
S radostí.
Na stole ležel dopis, který nikdo neotevřel.
Kolik lidí přišlo na tvoji oslavu?
Asi třicet, možná víc.
Už je pozdě, měli bychom jít.
Jakou barvu má tvoje nové auto?
Je tmavě modré s bílou střechou.
Knihovna bude od příštího měsíce otevřená i v neděli.
Nesahej na to!
Pozor, je to ještě horké.
Ten večer jsme tančili až do rána.
Promiňte, je tohle místo volné?
Ne, je bohužel obsazené.
Nemocnice přijala patnáct nových lékařů.
Chci s tebou mluvit o něčem důležitém.
Co se tady zase děje?
Martin dnes ráno zmeškal autobus a přišel pozdě do školy.
Jsi na mě naštvaná?
Trochu.
V kuchyni něco hoří!
Kdy jsi to zjistil?
Teprve včera od sestry.
Na zahradě nám rostou jablka, hrušky a švestky.
Otec mi vždycky říkal: „Pracuj tvrdě a buď poctivý.“
Kolik kilometrů je to odsud do Vídně?
Zhruba 330.
Zítra ti zavolám, slibuju.
Ta zpráva ho úplně zničila.
Poslanci budou o návrhu hlasovat ve středu.
Nemusíš na mě křičet.
Zase jsi nechal otevřenou lednici!
Chodíš do téhle kavárny často?
Jen o víkendech.
Babička nám každé Vánoce posílá balík cukroví.
Kudy se jde na nádraží?
Jděte rovně a na druhé křižovatce zahněte doleva.
Na cestu si vezmi teplou bundu.
Tohle auto je starší než já.
Mám rád tvůj smích.
Co si dáte k pití?
Dvě piva a jednu limonádu, prosím.
Výstava potrvá do konce října.
To snad nemyslíš vážně!
Chtěla bych se stát učitelkou.
Náš syn se narodil 3. května v 6:20 ráno.
Jsme tu správně, nebo jsme zabloudili?
Pojď dál, dveře jsou otevřené.
Celý život snil o tom, že bude pilotem.
Kdo tady vlastně velí?
Nevidím žádný důvod, proč bychom to měli měnit.
Zastavte to auto!
Kolem půlnoci začalo silně sněžit.
Tvoje matka volala, máš jí zavolat zpátky.
Ten hotel má výhled přímo na moře.
Nemůžu uvěřit, že je už prosinec.
Jsi už hotový s domácím úkolem?
Skoro.
Škola byla kvůli chřipce na týden uzavřena.
Kolik vajec potřebuješ na ten koláč?
Čtyři vejce a půl kila mouky.
Nesnáším pondělky a dlouhé porady.
Ukradli mi kolo přímo před domem.
Zavolal jsi už policii?
Mluvíte taky trochu česky?
Jen trochu, učím se teprve půl roku.
Lékaři zachránili život muži, kterého zasáhl blesk.
Tohle mi prosím tě nedělej.
Na starém kamenném mostě stál vysoký muž s černým kloboukem, kouřil dýmku a dlouho se díval do kalné vody pod sebou, jako by tam něco hledal.
Kde ses naučil tak dobře vařit?
Od své mámy, byla kuchařka.
Vstupné pro děti do 6 let je zdarma.
Mám to.
Počkej, ještě ne, nejsem připravená.
Ta holka z vedlejšího bytu hraje každý večer na klavír.
Kdy se vrátíš z Londýna?
Nejpozději v neděli večer.
Za rohem otevřeli novou pekárnu.
Jdeme pozdě, film začíná za pět minut!
Zemětřesení o síle 6,2 stupně zasáhlo v noci jih země.
Tak to ne!
Řekl jsem ti to už stokrát.
Jak se má tvoje rodina?
Všichni jsou zdraví, díky za optání.
Hledám dárek pro svou ženu.
Co takhle kytici růží?
Nedokážu si představit život bez hudby.
Kdo z nás půjde první?
Letos v létě bylo v Česku naměřeno až 38 stupňů.
Usmívej se, fotím!
Kdybych měl víc peněz, koupil bych si chalupu na horách.
To je ono!
Dveře se otevřely a dovnitř vešla mladá žena v červených šatech.
Vypadáš dneska hrozně unaveně.
Celou noc jsem se učil na zkoušku.
Mám ti s tím pomoct?
Zvládnu to sám, díky.
Ten most postavili už ve čtrnáctém století.
Kam se poděly všechny lžičky?
Co jsi to udělal?
Na náměstí se sešlo několik tisíc lidí.
Mohu tady zaplatit kartou?
Bohužel bereme jen hotovost.
Honzo, pojď na oběd!
Hned jsem tam, mami!
Můj dědeček oslavil minulý týden devadesáté narozeniny.
Ten kluk je chytřejší, než vypadá.
Kdo ti dal ty květiny?
Tajný ctitel.
Vlaky mezi Prahou a Berlínem budou jezdit častěji.
Neotvírej ty dveře, prosím!
Proč pořád tak šeptáš?
Dítě právě usnulo v kočárku.
Vždycky jsem věděl, že to dokážeš.
V roce 1989 padl v Československu komunistický režim.
Kolik je teď hodin v New Yorku?
Mám rezervaci na jméno Dvořák.
Váš pokoj je číslo 214 ve druhém patře.
Nikomu to neříkej, ani mámě.
Buď zticha!
Ta kavárna na nábřeží dělá výborné palačinky.
Zapomněl jsem heslo ke svému účtu.
Ozval se ti už někdo z té firmy?
Ještě ne, ale doufám, že brzy.
Uprostřed noci mě probudil hrom.
Vánoční stromek na náměstí měří dvacet metrů.
Tak jdeme, nebo ne?
Vydrž ještě chvíli, už tam budeme.
Na letišti jsme museli čekat šest hodin.
Co tím myslíš?
Jen to, co jsem řekl.
Lucie si objednala salát a já řízek s bramborovým salátem.
Už nikdy tam nechci jít.
Kdo z vás umí opravit kohoutek?
Závod vyhrála osmnáctiletá běžkyně z Brna.
Dávej na sebe pozor.
Ty taky.
Ten dopis jsem psal třikrát, než jsem byl spokojený.
Sníh roztál a řeka se rozvodnila.
Máš pravdu, omlouvám se.
Kolik ti dlužím za oběd?
Nic, dnes platím já.
Na rozloučenou nám zahrála kapela z vesnice.
Ten pán mluví pořád jen o politice.
Tenhle týden jsem pracoval sedmdesát hodin.
To přece není normální!
Jezero bylo tak klidné, že se v něm zrcadlily hory.
Vrať se!
Čí je ten kufr?
Můj, proč?
Ministerstvo zdravotnictví doporučuje očkování proti chřipce všem lidem nad 65 let.
Neboj, zítra bude líp.
Tady jsi! Všude tě hledám.
Nemám rád, když mi někdo lže.
Vlak přijíždí na první kolej v 18:45.
Nemůžeme tady zůstat, je to nebezpečné.
Dej mi pět minut.
Jaké bylo počasí na horách?
Krásné, celý týden svítilo slunce.
Šéf chce tu zprávu do pátku do poledne.
Nevadí, když si otevřu okno?
Vůbec ne.
Ty boty jsou mi malé.
Máte je o číslo větší?
Zloděj utekl oknem a zmizel ve tmě.
Sotva jsem ho poznal, hodně se změnil.
Moc mi chybíš, vrať se brzy.
Každé ráno běhám pět kilometrů kolem rybníka.
Ten pes se bojí bouřky.
Kdo dnes vaří večeři?
Ty, já jsem vařil včera.
Vědci objevili v Krkonoších nový druh brouka.
To je ale překvapení!
Ztlum to rádio, snažím se soustředit.
Nemám ponětí, o čem mluvíš.
Jeho poslední slova byla: „Postarej se o ni.“
Ten obchod otevírá v 7:30 a zavírá v 19:00.
Proč jsi tak smutný?
Včera mi zemřel pes.
To je mi moc líto.
Kolik hodin denně se díváš na televizi?
Vlastně skoro vůbec.
Na radnici se dnes konala svatba dvou známých herců.
Hodně štěstí!
Všechno nejlepší k narozeninám!
Zhasni světlo, až budeš odcházet.
Nikdy jsem nebyl v zahraničí.
V zoo se narodilo mládě žirafy.
Můžu se na něco zeptat?
Samozřejmě, ptej se.
Ten román jsem přečetl za jediný víkend.
Ať už se stane cokoli, budu stát při tobě.
Pozor, schod!
Jiří pracuje v bance už přes dvacet let a za celou tu dobu nebyl ani jednou nemocný.
Nesmíš se vzdávat tak snadno.
Kolik jsi za to zaplatil?
Necelých tisíc korun.
Cestující se žádají, aby si nenechávali zavazadla bez dozoru.
Už mě nebaví čekat.
Naše babička umí vyprávět ty nejkrásnější pohádky.
Kdo to zase zhasl světlo?
Tahle ulice byla dřív plná malých obchůdků.
Odpusť mi.
Konečně jsme zase doma!
Přes léto bude hrad otevřen denně kromě pondělí.
Sbohem a díky za všechno.
